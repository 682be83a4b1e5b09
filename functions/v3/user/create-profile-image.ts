import * as env from '#shared/core/env.ts';
import { type CreateProfileImageResponseDto, mapProfileImageV3 } from '#shared/dto/v3/user.response.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { parseMultipart } from '#shared/http/multipart.ts';
import { returns } from '#shared/http/pipeline.ts';
import { acceptProfileImage, createProfileImage, profileImageField } from '#shared/services/profile-image.service.ts';

export const handler = httpHandler(
  {
    generation: 'v3',
    access: 'user',
    permission: 'userProfileImage.update',
    returns: returns<CreateProfileImageResponseDto>(),
    status: 201,
  },
  async ({ auth, event }) => {
    const form = await parseMultipart(event, {
      fileFields: [profileImageField],
      maxBytes: env.uploadLimitBytes(),
      accept: acceptProfileImage,
    });
    return mapProfileImageV3(await createProfileImage(auth, form.files[profileImageField]));
  },
);
