import { IdParams } from '#shared/dto/common.ts';
import { UpdatePartnerDto } from '#shared/dto/v1/partner.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { type PartnerResponseDto, updatePartner } from '#shared/services/partner.service.ts';

export const handler = httpHandler(
  { access: 'user', returns: returns<PartnerResponseDto>(), params: IdParams, body: UpdatePartnerDto },
  ({ auth, params, body }) => updatePartner(auth, params.id, body.inTimeline),
);
