export {
  TransformerSandbox,
  TransformerCompileError,
  deadlineMessage,
  type PreparedTransformers,
  type SandboxOptions,
  type TransformerOutcome,
} from './transformer-sandbox';
