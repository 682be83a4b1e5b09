import { IdParams } from '#shared/dto/common.ts';
import { mapPartnerV3, type PartnerResponseDto } from '#shared/dto/v3/partner.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { createPartner } from '#shared/services/partner.service.ts';

// v3's old form of POST /partners (the 3.1 mobile app's).
export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'partner.create', returns: returns<PartnerResponseDto>(), params: IdParams, status: 201 },
  async ({ auth, params }) => mapPartnerV3(await createPartner(auth, params.id)),
);
