import * as z from 'zod';
import { JOB_TYPES } from '../model';

/** INTERFACE.md "Trigger" and "Trigger creation". */
export const triggerSchema = z.object({
  triggerCode: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]{0,127}$/, 'must be 1-128 letters, digits, _ . : -'),
  name: z.string().max(256).default(''),
  description: z.string().max(4096).default(''),
  eventType: z.enum(['DataRecordCreated', 'DataRecordUpdated', 'DataRecordRemoved']),
  /** An expression over `event`, with or without backticks; absent means always. */
  criteria: z.string().min(1).max(10_000).optional(),
  job: z.object({ jobType: z.enum(JOB_TYPES), params: z.record(z.string(), z.unknown()) }),
});

export const triggerBody = z.object({ trigger: triggerSchema });

export type TriggerDefinition = z.infer<typeof triggerSchema>;

/** A stored trigger: the definition plus what happened the last time its criteria failed. */
export interface Trigger extends TriggerDefinition {
  createdAt: string;
  lastError?: { message: string; time: string; eventId: string };
}
