/**
 * The served description of the upload sessions, this API's extension of Immich's
 * (`GET /api/asset/upload-session/openapi.json`, OpenAPI 3.0; docs/large-uploads.md says the same in prose).
 * Immich's own operations are described by Immich's OpenAPI document, which @immich/sdk is built
 * from; this one covers only what Immich does not have.
 */
import { limits } from '../model/limits.ts';

const error = { $ref: '#/components/schemas/Error' };
const badRequest = {
  description: 'Bad input, not found or no `asset.upload` access, expired, wrong SHA-1, missing parts',
  content: { 'application/json': { schema: error } },
};
const sessionId = { name: 'sessionId', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } };
const session = { 'application/json': { schema: { $ref: '#/components/schemas/UploadSessionResponseDto' } } };
const uploadResponse = { 'application/json': { schema: { $ref: '#/components/schemas/AssetFileUploadResponseDto' } } };
const security = [{ bearer: [] }, { cookie: [] }, { api_key: [] }];

export const uploadSessionApi = {
  openapi: '3.0.3',
  info: {
    title: 'Upload sessions (an extension of the Immich API)',
    version: '1',
    description:
      "Large files straight into the store as multipart uploads: open a session with the file's size, SHA-1 and parts' SHA-1s, PUT each part to its URL with its headers, complete. See docs/large-uploads.md.",
  },
  servers: [{ url: '/api' }],
  paths: {
    '/asset/upload-session': {
      post: {
        operationId: 'createUploadSession',
        summary: 'Open a session (a duplicate is answered at once)',
        security,
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { $ref: '#/components/schemas/CreateUploadSessionDto' } } },
        },
        responses: {
          201: { description: 'The session, with a URL for each part', content: session },
          200: { description: 'The owner has this file already: `{id, duplicate: true}`', content: uploadResponse },
          400: badRequest,
        },
      },
    },
    '/asset/upload-session/{sessionId}': {
      get: {
        operationId: 'getUploadSession',
        summary: 'Which parts the store holds, with fresh URLs (to resume)',
        security,
        parameters: [sessionId],
        responses: { 200: { description: 'The session', content: session }, 400: badRequest },
      },
      delete: {
        operationId: 'deleteUploadSession',
        summary: 'Give the upload up: its parts are dropped',
        security,
        parameters: [sessionId],
        responses: { 204: { description: 'Ended' }, 400: badRequest },
      },
    },
    '/asset/upload-session/{sessionId}/complete': {
      post: {
        operationId: 'completeUploadSession',
        summary: 'Join the parts, check the SHA-1, record the asset',
        security,
        parameters: [sessionId],
        responses: {
          201: { description: 'The asset: `{id, duplicate: false}`', content: uploadResponse },
          200: { description: 'The same file was recorded meanwhile: `{id, duplicate: true}`', content: uploadResponse },
          400: badRequest,
        },
      },
    },
  },
  components: {
    securitySchemes: {
      bearer: { type: 'http', scheme: 'bearer' },
      cookie: { type: 'apiKey', in: 'cookie', name: 'immich_access_token' },
      api_key: { type: 'apiKey', in: 'header', name: 'x-api-key' },
    },
    schemas: {
      CreateUploadSessionDto: {
        type: 'object',
        required: [
          'deviceAssetId',
          'deviceId',
          'fileCreatedAt',
          'fileModifiedAt',
          'fileName',
          'size',
          'checksum',
          'partSize',
          'partChecksums',
        ],
        properties: {
          deviceAssetId: { type: 'string' },
          deviceId: { type: 'string' },
          fileCreatedAt: { type: 'string', format: 'date-time' },
          fileModifiedAt: { type: 'string', format: 'date-time' },
          duration: { type: 'string' },
          libraryId: { type: 'string', format: 'uuid' },
          isFavorite: { type: 'boolean' },
          isArchived: { type: 'boolean' },
          isVisible: { type: 'boolean' },
          isOffline: { type: 'boolean' },
          isReadOnly: { type: 'boolean' },
          fileName: { type: 'string' },
          size: { type: 'integer', minimum: 1, maximum: limits.sessionBytes },
          checksum: { type: 'string', description: "The file's SHA-1, hex or base64" },
          partSize: { type: 'integer', minimum: limits.minPartBytes, maximum: limits.maxPartBytes },
          partChecksums: {
            type: 'array',
            maxItems: limits.sessionParts,
            items: { type: 'string' },
            description: "Each part's SHA-1, base64: one per ceil(size / partSize)",
          },
          sidecarData: { type: 'string', description: 'The XMP sidecar', maxLength: limits.sidecarBytes },
        },
      },
      UploadSessionResponseDto: {
        type: 'object',
        required: ['id', 'duplicate', 'sessionId', 'fileName', 'size', 'partSize', 'expiresAt', 'parts'],
        properties: {
          id: { type: 'string', format: 'uuid', description: 'The asset the file becomes' },
          duplicate: { type: 'boolean', enum: [false] },
          sessionId: { type: 'string', format: 'uuid' },
          fileName: { type: 'string' },
          size: { type: 'integer' },
          partSize: { type: 'integer' },
          expiresAt: { type: 'string', format: 'date-time' },
          parts: {
            type: 'array',
            items: {
              type: 'object',
              required: ['partNumber', 'url', 'headers', 'uploaded'],
              properties: {
                partNumber: { type: 'integer' },
                url: { type: 'string', description: 'PUT the part here (absolute: S3; relative: this server)' },
                headers: { type: 'object', additionalProperties: { type: 'string' }, description: 'Send these with the PUT' },
                uploaded: { type: 'boolean' },
              },
            },
          },
        },
      },
      AssetFileUploadResponseDto: {
        type: 'object',
        required: ['id', 'duplicate'],
        properties: { id: { type: 'string', format: 'uuid' }, duplicate: { type: 'boolean' } },
      },
      Error: {
        type: 'object',
        properties: { message: {}, error: { type: 'string' }, statusCode: { type: 'integer' } },
      },
    },
  },
} as const;
