import { WorkflowRecordSchema } from '../../model/workflow.ts';
import { codec } from '../codec.ts';

export const workflowCodec = codec('workflow', WorkflowRecordSchema);
