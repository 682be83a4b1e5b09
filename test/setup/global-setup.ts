import type { TestProject } from 'vitest/node';
import { type DynamoDbLocal, startDynamoDbLocal } from '#infra/local/dynamodb-local.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
  }
}

/**
 * The run's one DynamoDB Local, shared by the projects that set it up (`integration` and
 * `deployed`): vitest runs this setup once per project, in one process. One Java process then
 * starts and warms up its JIT once for the run instead of once per project (docs/running.md,
 * "How long the tests take"); the files stay apart by table. It stops after the last project's teardown.
 */
const shared = globalThis as typeof globalThis & { immichDynamoDbLocal?: { started: Promise<DynamoDbLocal>; users: number } };

/**
 * DynamoDB Local with the JVM's serial collector (`JAVA_TOOL_OPTIONS`, for its process only): the
 * default collector's concurrent threads cost it about 7% more CPU over a test file, on two cores
 * its workers share with it (docs/running.md).
 */
const startWithSerialGc = async (): Promise<DynamoDbLocal> => {
  const given = process.env.JAVA_TOOL_OPTIONS;
  process.env.JAVA_TOOL_OPTIONS = [given, '-XX:+UseSerialGC'].filter(Boolean).join(' ');
  try {
    return await startDynamoDbLocal();
  } finally {
    if (given === undefined) delete process.env.JAVA_TOOL_OPTIONS;
    else process.env.JAVA_TOOL_OPTIONS = given;
  }
};

/** One DynamoDB Local (in memory, free port) for the whole run; each test file gets its own table. */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  shared.immichDynamoDbLocal ??= { started: startWithSerialGc(), users: 0 };
  const local = shared.immichDynamoDbLocal;
  local.users++;
  const dynamo = await local.started;
  project.provide('dynamoEndpoint', dynamo.endpoint);
  return async () => {
    local.users--;
    if (local.users > 0) return;
    shared.immichDynamoDbLocal = undefined;
    await dynamo.stop();
  };
}
