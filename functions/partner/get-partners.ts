import { mapPartner, type PartnerResponseDto } from '#shared/dto/v1/partner.response.ts';
import { PartnerDirectionQuery } from '#shared/dto/v1/partner.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { getPartners } from '#shared/services/partner.service.ts';

export const handler = httpHandler(
  { access: 'user', permission: 'partner.read', returns: returns<PartnerResponseDto[]>(), query: PartnerDirectionQuery },
  async ({ auth, query }) => (await getPartners(auth, query.direction)).map(mapPartner),
);
