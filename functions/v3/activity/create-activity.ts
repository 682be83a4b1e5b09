import { type ActivityResponseDto, mapActivityV3 } from '#shared/dto/v3/activity.response.ts';
import { ActivityCreateDto } from '#shared/dto/v3/activity.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { HttpResponse } from '#shared/http/response.ts';
import { addActivity } from '#shared/services/activity.service.ts';

// 201 for a new like or comment; 200 for a like the caller had already given (Immich's duplicate).
export const handler = httpHandler(
  {
    generation: 'v3',
    access: 'user',
    permission: 'activity.create',
    body: ActivityCreateDto,
    returns: returns<ActivityResponseDto>(),
    status: 201,
  },
  async ({ auth, body }) => {
    const created = await addActivity(auth, body);
    return created.duplicate ? new HttpResponse(mapActivityV3(created), { status: 200 }) : mapActivityV3(created);
  },
);
