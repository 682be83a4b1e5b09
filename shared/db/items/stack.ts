import { StackRecordSchema } from '../../model/stack.ts';
import { codec } from '../codec.ts';

export const stackCodec = codec('stack', StackRecordSchema);
