import { mapServerFeaturesV3, type ServerFeaturesDto } from '#shared/dto/v3/server.ts';
import { returns } from '#shared/http/pipeline.ts';
import { publicHandler } from '#shared/http/public-handler.ts';
import { mlFeatures } from '#shared/ml/features.ts';
import { readOAuthConfig } from '#shared/services/oauth-config.ts';

export const handler = publicHandler({ generation: 'v3', returns: returns<ServerFeaturesDto>() }, async () => {
  const config = await readOAuthConfig();
  return mapServerFeaturesV3(config, await mlFeatures(config.machineLearning));
});
