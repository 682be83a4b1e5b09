import { IdParams } from '#shared/dto/common.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { createPartner, type PartnerResponseDto } from '#shared/services/partner.service.ts';

export const handler = httpHandler(
  { access: 'user', returns: returns<PartnerResponseDto>(), params: IdParams, status: 201 },
  ({ auth, params }) => createPartner(auth, params.id),
);
