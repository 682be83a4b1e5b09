import { httpHandler } from '#shared/http/handler.ts';
import { IdParams } from '#shared/schemas/common.ts';
import { getPerson } from '#shared/services/person.service.ts';

export const handler = httpHandler({ access: 'user', params: IdParams }, ({ auth, params }) => getPerson(auth, params.id));
