import { httpHandler } from '#shared/http/handler.ts';
import { uploadFile } from '#shared/services/upload.service.ts';

// The body is multipart/form-data, parsed (and validated) by the service in Immich's order.
export const handler = httpHandler({ access: 'user', status: 201 }, ({ auth, event }) => uploadFile(auth, event));
