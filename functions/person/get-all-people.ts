import { httpHandler } from '#shared/http/handler.ts';
import { PersonSearchDto } from '#shared/schemas/person.ts';
import { getAllPeople } from '#shared/services/person.service.ts';

export const handler = httpHandler({ access: 'user', query: PersonSearchDto }, ({ auth, query }) => getAllPeople(auth, query.withHidden ?? false));
