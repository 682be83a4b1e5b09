import { IdParams } from '#shared/dto/common.ts';
import { mapPartner, type PartnerResponseDto } from '#shared/dto/v1/partner.response.ts';
import { UpdatePartnerDto } from '#shared/dto/v1/partner.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { updatePartner } from '#shared/services/partner.service.ts';

export const handler = httpHandler(
  { access: 'user', permission: 'partner.update', returns: returns<PartnerResponseDto>(), params: IdParams, body: UpdatePartnerDto },
  async ({ auth, params, body }) => mapPartner(await updatePartner(auth, params.id, body.inTimeline)),
);
