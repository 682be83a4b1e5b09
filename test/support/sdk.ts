import { createApiKey, login, signUpAdmin, uploadFile } from '@immich/sdk';

/** What @immich/sdk calls take to act as a user: the base URL and the API key header. */
export interface SdkUser {
  baseUrl: string;
  headers: Record<string, string>;
}

/**
 * The server's admin, through @immich/sdk as a client would: signs up (unless there is an admin
 * already), logs in and makes an API key for the calls that follow.
 */
export const adminWithApiKey = async (baseUrl: string, email = 'admin@immich.cloud', password = 'password'): Promise<SdkUser> => {
  await signUpAdmin({ signUpDto: { email, password, name: 'Admin' } }, { baseUrl }).catch(() => undefined);
  const { accessToken } = await login({ loginCredentialDto: { email, password } }, { baseUrl });
  const { secret } = await createApiKey({ apiKeyCreateDto: {} }, { baseUrl, headers: { Authorization: `Bearer ${accessToken}` } });
  return { baseUrl, headers: { 'x-api-key': secret } };
};

/** Uploads a file through @immich/sdk's uploadFile as a client does (device `e2e`, the file name as its device asset id); its id. */
export const sdkUpload = async (user: SdkUser, data: Buffer, fileName: string, deviceId = 'e2e'): Promise<string> =>
  (
    await uploadFile(
      {
        createAssetDto: {
          assetData: new File([new Uint8Array(data)], fileName),
          deviceAssetId: fileName,
          deviceId,
          fileCreatedAt: '2024-01-01T00:00:00.000Z',
          fileModifiedAt: '2024-01-01T00:00:00.000Z',
        },
      },
      user,
    )
  ).id;
