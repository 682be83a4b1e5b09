import { mapPartnerV3, PartnerCreateDto, type PartnerResponseDto } from '#shared/dto/v3/partner.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { createPartner } from '#shared/services/partner.service.ts';

// The caller shares their library with `sharedWithId`.
export const handler = httpHandler(
  {
    generation: 'v3',
    access: 'user',
    permission: 'partner.create',
    returns: returns<PartnerResponseDto>(),
    body: PartnerCreateDto,
    status: 201,
  },
  async ({ auth, body }) => mapPartnerV3(await createPartner(auth, body.sharedWithId)),
);
