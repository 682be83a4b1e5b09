import { httpHandler } from '#shared/http/handler.ts';

// Reaching the handler means the stack accepted the credentials.
export const handler = httpHandler({ access: 'user' }, () => ({ authStatus: true }));
