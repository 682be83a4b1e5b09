import { IdParams } from '#shared/dto/common.ts';
import { mapPartnerV3, type PartnerResponseDto, PartnerUpdateDto } from '#shared/dto/v3/partner.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { updatePartner } from '#shared/services/partner.service.ts';

export const handler = httpHandler(
  {
    generation: 'v3',
    access: 'user',
    permission: 'partner.update',
    returns: returns<PartnerResponseDto>(),
    params: IdParams,
    body: PartnerUpdateDto,
  },
  async ({ auth, params, body }) => mapPartnerV3(await updatePartner(auth, params.id, body.inTimeline)),
);
