/**
 * A new realtime connection handed to the greeter (functions/realtime/greet.ts), which speaks
 * first on it once API Gateway has opened it: the `$connect` function cannot post to its own
 * connection (API Gateway refuses until `$connect` has answered). Deployed, an asynchronous Lambda
 * invocation (`GREETER_FUNCTION`, its ARN), as AWS advises; locally, the WebSocket API's stand-in
 * registers a runner that calls the same handler in its process (infra/local/websocket-api.ts).
 */
import { InvokeCommand, LambdaClient } from '@aws-sdk/client-lambda';
import * as env from '../core/env.ts';
import { log } from '../core/log.ts';

/** Whom to greet: a signed-in connection, in its generation's shapes, or one whose credentials were refused. */
export type Greeting = { kind: 'welcome'; connectionId: string; generation: 'v1' | 'v3' } | { kind: 'unauthorized'; connectionId: string };

let localRunner: ((greeting: Greeting) => void) | undefined;

/** Where greetings go when there is no greeter function to invoke: the local stand-in's runner. */
export const runGreetingsWith = (runner: ((greeting: Greeting) => void) | undefined): void => {
  localRunner = runner;
};

let client: LambdaClient | undefined;

/** Hands the greeting on; a failure is logged (the app's connect times out and it connects again). */
export const queueGreeting = async (greeting: Greeting): Promise<void> => {
  const target = env.greeterFunction();
  if (!target) {
    if (localRunner) localRunner(greeting);
    else log.warn('No greeter to greet a realtime connection');
    return;
  }
  try {
    client ??= new LambdaClient({});
    await client.send(new InvokeCommand({ FunctionName: target, InvocationType: 'Event', Payload: JSON.stringify(greeting) }));
  } catch (error) {
    log.error('A realtime connection was not greeted', { error: String(error) });
  }
};
