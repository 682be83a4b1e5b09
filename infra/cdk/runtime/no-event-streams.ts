/**
 * Stand-in for `@smithy/core/event-streams` inside Lambda bundles (esbuild alias, see
 * infra/cdk/bundling.ts). The SDK's protocol code loads it only for operations with event streams
 * (S3 SelectObjectContent, Bedrock, Transcribe…); DynamoDB has none, and no function here calls
 * one. esbuild inlines that dynamic import into every bundle: ~11 KB of event-stream codecs per
 * function, never run. The S3 client wires a marshaller in at construction: it gets one whose
 * every use fails loudly, so an event-stream call could never half-work.
 */
const missing = (): never => {
  throw new Error('Event streams are not bundled into these functions (infra/cdk/runtime/no-event-streams.ts)');
};

const unavailable = { serialize: missing, deserialize: missing };

export const eventStreamSerdeProvider = (): typeof unavailable => unavailable;

export const resolveEventStreamSerdeConfig = <T extends { eventStreamSerdeProvider: (input: T) => unknown }>(input: T) =>
  Object.assign(input, { eventStreamMarshaller: input.eventStreamSerdeProvider(input) });

export class EventStreamSerde {
  constructor() {
    missing();
  }
}
