import { httpHandler } from '#shared/http/handler.ts';
import { SearchDto } from '#shared/schemas/search.ts';
import { searchText } from '#shared/services/search.service.ts';

export const handler = httpHandler({ access: 'user', query: SearchDto }, ({ auth, query }) => searchText(auth, query));
