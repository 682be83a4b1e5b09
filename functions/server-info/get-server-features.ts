import { mapServerFeatures, type ServerFeaturesDto } from '#shared/dto/v1/server-info.ts';
import { returns } from '#shared/http/pipeline.ts';
import { publicHandler } from '#shared/http/public-handler.ts';
import { mlFeatures } from '#shared/ml/features.ts';
import { readOAuthConfig } from '#shared/services/oauth-config.ts';

export const handler = publicHandler({ returns: returns<ServerFeaturesDto>() }, async () => {
  const config = await readOAuthConfig();
  return mapServerFeatures(config, await mlFeatures(config.machineLearning));
});
