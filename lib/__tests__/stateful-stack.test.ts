import { Match } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { TABLE_ATTRIBUTES, TABLE_KEY_SCHEMA } from '../../functions/adapters/aws/table';
import { EVENT_LOG_TTL_ATTRIBUTE } from '../../functions/core/graph/events/event-log';
import { resourcesOf, synthesized } from './synth';

const { statefulTemplate: stateful } = synthesized();

describe('stateful stack: the single table', () => {
  it('has the key schema of functions/adapters/aws/table.ts, on demand', () => {
    stateful.resourceCountIs('AWS::DynamoDB::Table', 1);
    stateful.hasResourceProperties('AWS::DynamoDB::Table', {
      KeySchema: TABLE_KEY_SCHEMA.map((k) => ({ ...k })),
      AttributeDefinitions: TABLE_ATTRIBUTES.map((a) => ({ ...a })),
      BillingMode: 'PAY_PER_REQUEST',
    });
  });

  it('is protected: point-in-time recovery, deletion protection, retained on stack deletion', () => {
    stateful.hasResource('AWS::DynamoDB::Table', {
      Properties: Match.objectLike({
        PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
        DeletionProtectionEnabled: true,
      }),
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
    });
  });

  it('streams new and old images for the event wiring', () => {
    stateful.hasResourceProperties('AWS::DynamoDB::Table', { StreamSpecification: { StreamViewType: 'NEW_AND_OLD_IMAGES' } });
  });

  it('expires items through TTL on the event log attribute `ttl`', () => {
    expect(EVENT_LOG_TTL_ATTRIBUTE).toBe('ttl');
    stateful.hasResourceProperties('AWS::DynamoDB::Table', { TimeToLiveSpecification: { AttributeName: 'ttl', Enabled: true } });
  });
});

describe('stateful stack: the files bucket', () => {
  it('is encrypted, never public, owner-enforced, versioned and retained', () => {
    stateful.resourceCountIs('AWS::S3::Bucket', 1);
    stateful.hasResource('AWS::S3::Bucket', {
      Properties: Match.objectLike({
        BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
        PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
        OwnershipControls: { Rules: [{ ObjectOwnership: 'BucketOwnerEnforced' }] },
        VersioningConfiguration: { Status: 'Enabled' },
      }),
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
    });
  });

  it('expires old versions after 30 days and aborts abandoned multipart uploads', () => {
    const [bucket] = Object.values(resourcesOf(stateful, 'AWS::S3::Bucket'));
    const rules = bucket!.Properties.LifecycleConfiguration.Rules as Record<string, any>[];
    expect(rules).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ NoncurrentVersionExpiration: { NoncurrentDays: 30 }, Status: 'Enabled' }),
        expect.objectContaining({ AbortIncompleteMultipartUpload: { DaysAfterInitiation: 7 }, Status: 'Enabled' }),
      ]),
    );
  });

  it('refuses requests without TLS, or below TLS 1.2', () => {
    const [policy] = Object.values(resourcesOf(stateful, 'AWS::S3::BucketPolicy'));
    const statements = policy!.Properties.PolicyDocument.Statement as Record<string, any>[];
    expect(statements).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ Effect: 'Deny', Action: 's3:*', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        expect.objectContaining({ Effect: 'Deny', Action: 's3:*', Condition: { NumericLessThan: { 's3:TlsVersion': 1.2 } } }),
      ]),
    );
  });
});

describe('stateful stack: the event bus and outputs', () => {
  it('has one custom EventBridge bus', () => {
    stateful.resourceCountIs('AWS::Events::EventBus', 1);
  });

  it('outputs the table, bucket and bus names (create-customer reads TableName)', () => {
    for (const name of ['TableName', 'FilesBucketName', 'EventBusName']) stateful.hasOutput(name, {});
  });
});
