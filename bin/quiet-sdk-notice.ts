/**
 * Imported first by bin/app.ts (ES modules run in import order): the stacks read constants
 * from the AWS adapters, whose module scope makes SDK clients, and on the Node 20 used for
 * synth the SDK prints a notice about its own future Node 22 floor. The functions run on
 * Node 22; the notice is noise here.
 */
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
