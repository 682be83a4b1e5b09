import * as env from '#shared/core/env.ts';
import { type CreateProfileImageResponseDto, mapProfileImage } from '#shared/dto/v1/user.response.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { parseMultipart } from '#shared/http/multipart.ts';
import { returns } from '#shared/http/pipeline.ts';
import { acceptProfileImage, createProfileImage, profileImageField } from '#shared/services/profile-image.service.ts';

// multipart/form-data with one `file` of a profile image type.
export const handler = httpHandler(
  { access: 'user', permission: 'userProfileImage.update', returns: returns<CreateProfileImageResponseDto>(), status: 201 },
  async ({ auth, event }) => {
    const form = await parseMultipart(event, {
      fileFields: [profileImageField],
      maxBytes: env.uploadLimitBytes(),
      accept: acceptProfileImage,
    });
    return mapProfileImage(await createProfileImage(auth, form.files[profileImageField]));
  },
);
