import * as env from './env.ts';

// A plain lookup of the builtin: an ESM import of it goes through the module loader, which costs
// ~0.4 ms of every cold start here (docs/benchmarks.md; the same reason node:http is required).
const { AsyncLocalStorage } = process.getBuiltinModule('node:async_hooks');

/**
 * Structured JSON logs, one line each, as CloudWatch Logs Insights reads them. Never pass a
 * request body, header or token here: only ids, routes, status codes and error stacks.
 *
 * Each line carries the context of the request it belongs to (its request id). The context lives
 * in an AsyncLocalStorage, not a module variable, so two requests served concurrently by one
 * process (the local server) never log under each other's id.
 */
type Level = 'INFO' | 'WARN' | 'ERROR';

/** What a request consumed of DynamoDB (its consumed capacity, as DynamoDB reports it). */
export interface Usage {
  dynamoCalls: number;
  dynamoReadUnits: number;
  dynamoWriteUnits: number;
}

export interface LogContext {
  requestId?: string;
  /** Added to by the DynamoDB client (shared/db/client.ts), reported in the request's log line. */
  usage?: Usage;
}

const context = new AsyncLocalStorage<LogContext>();

/** Runs `fn` with `fields` attached to every line it (and whatever it awaits) logs. */
export const withLogContext = <T>(fields: LogContext, fn: () => T): T => context.run(fields, fn);

/** The current request's usage, if a request is being served. */
export const currentUsage = (): Usage | undefined => context.getStore()?.usage;

const write = (level: Level, message: string, fields: Record<string, unknown>): void => {
  if (env.logLevel() === 'silent') return;
  const line = JSON.stringify({ level, timestamp: new Date().toISOString(), requestId: context.getStore()?.requestId, message, ...fields });
  if (level === 'ERROR') console.error(line);
  else console.log(line);
};

export const log = {
  info: (message: string, fields: Record<string, unknown> = {}) => write('INFO', message, fields),
  warn: (message: string, fields: Record<string, unknown> = {}) => write('WARN', message, fields),
  error: (message: string, fields: Record<string, unknown> = {}) => write('ERROR', message, fields),
};

/** The CloudWatch namespace of the metrics the functions' log lines carry (shared/http/access-log.ts); the stack's alarms read it. */
export const metricsNamespace = 'ImmichServerless';
