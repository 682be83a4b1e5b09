import { IdParams } from '#shared/dto/common.ts';
import { mapPartner, type PartnerResponseDto } from '#shared/dto/v1/partner.response.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { createPartner } from '#shared/services/partner.service.ts';

export const handler = httpHandler(
  { access: 'user', permission: 'partner.create', returns: returns<PartnerResponseDto>(), params: IdParams, status: 201 },
  async ({ auth, params }) => mapPartner(await createPartner(auth, params.id)),
);
