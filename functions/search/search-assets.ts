import { httpHandler } from '#shared/http/handler.ts';
import { SearchAssetsDto } from '#shared/schemas/search.ts';
import { searchAssets } from '#shared/services/search.service.ts';

export const handler = httpHandler({ access: 'user', query: SearchAssetsDto }, ({ auth, query }) => searchAssets(auth, query));
