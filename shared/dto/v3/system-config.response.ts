import type { SystemConfig } from '../../model/config.ts';

// The configuration in Immich v3.2's shapes (docs/immich-compatibility.md, "System configuration"):
// apart from the request schema, so the functions that only read it do not build that schema.

/** v3.2's AdminConfigDto (GET, PUT /admin/config): the configuration without v1.100's own settings and views. */
export type AdminConfigDto = Omit<SystemConfig, 'thumbnail' | 'machineLearning' | 'ffmpeg'> & {
  machineLearning: Omit<SystemConfig['machineLearning'], 'url'>;
  ffmpeg: Omit<SystemConfig['ffmpeg'], 'npl'>;
};

export const mapAdminConfig = (config: SystemConfig): AdminConfigDto => {
  const { thumbnail: _view, machineLearning, ffmpeg, ...rest } = config;
  const { url: _url, ...ml } = machineLearning;
  const { npl: _npl, ...video } = ffmpeg;
  return { ...rest, machineLearning: ml, ffmpeg: video };
};

/** v3.2's PublicConfigDto (GET /public/config): what the sign-in page shows, to anyone. */
export const mapPublicConfig = ({ oauth, passwordLogin, server, theme }: SystemConfig) => ({
  oauth: { autoLaunch: oauth.autoLaunch, buttonText: oauth.buttonText, enabled: oauth.enabled },
  passwordLogin: { enabled: passwordLogin.enabled },
  server: { loginPageMessage: server.loginPageMessage },
  theme: { customCss: theme.customCss },
});
export type PublicConfigDto = ReturnType<typeof mapPublicConfig>;

/** v3.2's UserConfigDto (GET /config): the settings a signed-in user's apps read. */
export const mapUserConfig = (config: SystemConfig) => {
  const { ffmpeg, image, machineLearning: ml, map, reverseGeocoding, server, trash, user } = config;
  return {
    ...mapPublicConfig(config),
    ffmpeg: { realtime: { ...ffmpeg.realtime } },
    image: {
      fullsize: { enabled: image.fullsize.enabled },
      preview: { size: image.preview.size },
      thumbnail: { size: image.thumbnail.size },
    },
    machineLearning: {
      enabled: ml.enabled,
      clip: { enabled: ml.clip.enabled },
      duplicateDetection: { enabled: ml.duplicateDetection.enabled },
      facialRecognition: { enabled: ml.facialRecognition.enabled, minFaces: ml.facialRecognition.minFaces },
      ocr: { enabled: ml.ocr.enabled },
    },
    map: { ...map },
    reverseGeocoding: { enabled: reverseGeocoding.enabled },
    server: { externalDomain: server.externalDomain, loginPageMessage: server.loginPageMessage, publicUsers: server.publicUsers },
    trash: { ...trash },
    user: { ...user },
  };
};
export type UserConfigDto = ReturnType<typeof mapUserConfig>;
