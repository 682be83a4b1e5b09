import { type ActivityResponseDto, mapActivity } from '#shared/dto/v1/activity.response.ts';
import { ActivityCreateDto } from '#shared/dto/v1/activity.ts';
import { httpHandler } from '#shared/http/handler.ts';
import { returns } from '#shared/http/pipeline.ts';
import { HttpResponse } from '#shared/http/response.ts';
import { addActivity } from '#shared/services/activity.service.ts';

// 201 for a new like or comment; 200 for a like the caller had already given (Immich's duplicate).
export const handler = httpHandler(
  { access: 'user', permission: 'activity.create', body: ActivityCreateDto, returns: returns<ActivityResponseDto>(), status: 201 },
  async ({ auth, body }) => {
    const created = await addActivity(auth, body);
    return created.duplicate ? new HttpResponse(mapActivity(created), { status: 200 }) : mapActivity(created);
  },
);
