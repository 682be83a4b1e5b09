import { MemoryRecordSchema } from '../../model/memory.ts';
import { codec } from '../codec.ts';

// The memory's `type` is stored as `memoryType`: `type` names the entity on every item.
export const memoryCodec = codec('memory', MemoryRecordSchema, { memoryType: 'type' });
