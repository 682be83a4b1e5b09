import { mapPartnerV3, type PartnerResponseDto, PartnerSearchDto } from '#shared/dto/v3/partner.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getPartners } from '#shared/services/partner.service.ts';

export const handler = httpHandler(
  { generation: 'v3', access: 'user', permission: 'partner.read', returns: returns<PartnerResponseDto[]>(), query: PartnerSearchDto },
  async ({ auth, query }) => (await getPartners(auth, query.direction)).map(mapPartnerV3),
);
