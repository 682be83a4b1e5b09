/**
 * Structured JSON logs, one line each, as CloudWatch Logs Insights reads them. Never pass a
 * request body, header or token here: only ids, routes, status codes and error stacks.
 */
type Level = 'INFO' | 'WARN' | 'ERROR';

let requestId: string | undefined;

export const setLogRequestId = (id: string | undefined): void => {
  requestId = id;
};

const write = (level: Level, message: string, fields: Record<string, unknown>): void => {
  const line = JSON.stringify({ level, timestamp: new Date().toISOString(), requestId, message, ...fields });
  if (process.env.LOG_LEVEL === 'silent') return;
  if (level === 'ERROR') console.error(line);
  else console.log(line);
};

export const log = {
  info: (message: string, fields: Record<string, unknown> = {}) => write('INFO', message, fields),
  warn: (message: string, fields: Record<string, unknown> = {}) => write('WARN', message, fields),
  error: (message: string, fields: Record<string, unknown> = {}) => write('ERROR', message, fields),
};
