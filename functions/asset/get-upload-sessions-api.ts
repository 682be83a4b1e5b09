import { uploadSessionApi } from '#shared/domain/upload-session-api.ts';
import { returns } from '#shared/http/pipeline.ts';
import { publicHandler } from '#shared/http/public-handler.ts';

// The served description of this API's extension (upload sessions), as OpenAPI 3.0.
export const handler = publicHandler({ returns: returns<typeof uploadSessionApi>() }, () => uploadSessionApi);
