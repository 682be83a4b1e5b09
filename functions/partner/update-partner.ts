import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { IdParams } from '#shared/schemas/common.ts';
import { UpdatePartnerDto } from '#shared/schemas/partner.ts';
import { type PartnerResponseDto, updatePartner } from '#shared/services/partner.service.ts';

export const handler = httpHandler(
  { access: 'user', returns: returns<PartnerResponseDto>(), params: IdParams, body: UpdatePartnerDto },
  ({ auth, params, body }) => updatePartner(auth, params.id, body.inTimeline),
);
