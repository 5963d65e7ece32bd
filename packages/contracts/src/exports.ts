import { z } from 'zod';
import { agentJobStatusSchema } from './agents.js';

/** Export formats as the ultralytics exporter names them (`yolo export format=<name>`). */
export const EXPORT_FORMATS = [
  'torchscript',
  'onnx',
  'openvino',
  'engine',
  'coreml',
  'saved_model',
  'pb',
  'tflite',
  'edgetpu',
  'tfjs',
  'paddle',
  'mnn',
  'ncnn',
  'imx',
  'rknn',
] as const;
export const exportFormatSchema = z.enum(EXPORT_FORMATS);
export type ExportFormat = z.infer<typeof exportFormatSchema>;

/** What `yolo export format=X` writes next to `best.pt`: a file, or a folder (uploaded as a zip). */
export const EXPORT_OUTPUTS: Record<ExportFormat, { suffix: string; folder: boolean; label: string }> = {
  torchscript: { suffix: '.torchscript', folder: false, label: 'TorchScript' },
  onnx: { suffix: '.onnx', folder: false, label: 'ONNX' },
  openvino: { suffix: '_openvino_model', folder: true, label: 'OpenVINO' },
  engine: { suffix: '.engine', folder: false, label: 'TensorRT' },
  coreml: { suffix: '.mlpackage', folder: true, label: 'CoreML' },
  saved_model: { suffix: '_saved_model', folder: true, label: 'TF SavedModel' },
  pb: { suffix: '.pb', folder: false, label: 'TF GraphDef' },
  tflite: { suffix: '.tflite', folder: false, label: 'TF Lite' },
  edgetpu: { suffix: '_edgetpu.tflite', folder: false, label: 'TF Edge TPU' },
  tfjs: { suffix: '_web_model', folder: true, label: 'TF.js' },
  paddle: { suffix: '_paddle_model', folder: true, label: 'PaddlePaddle' },
  mnn: { suffix: '.mnn', folder: false, label: 'MNN' },
  ncnn: { suffix: '_ncnn_model', folder: true, label: 'NCNN' },
  imx: { suffix: '_imx_model', folder: true, label: 'IMX500' },
  rknn: { suffix: '_rknn_model', folder: true, label: 'RKNN' },
};

/** Advanced options under their ultralytics names. */
export const exportOptionsSchema = z
  .object({
    imgsz: z.number().int().min(32).max(4096).optional(),
    half: z.boolean().optional(),
    int8: z.boolean().optional(),
    dynamic: z.boolean().optional(),
    simplify: z.boolean().optional(),
    opset: z.number().int().min(7).max(30).optional(),
    batch: z.number().int().min(1).max(1024).optional(),
    nms: z.boolean().optional(),
  })
  .strict();
export type ExportOptions = z.infer<typeof exportOptionsSchema>;

export const createExportBody = z.object({ format: exportFormatSchema, options: exportOptionsSchema.default({}) });

export const modelExportSchema = z.object({
  id: z.string(),
  modelId: z.string(),
  format: exportFormatSchema,
  options: exportOptionsSchema,
  status: agentJobStatusSchema,
  auto: z.boolean(),
  fileName: z.string().nullable(),
  bytes: z.number().nullable(),
  error: z.string().nullable(),
  attempts: z.number(),
  jobId: z.string().nullable(),
  created: z.string(),
  finished: z.string().nullable(),
  /** GET URL of the artifact when succeeded */
  downloadUrl: z.string().nullable(),
  canRetry: z.boolean(),
});
export type ModelExport = z.infer<typeof modelExportSchema>;
export const modelExportsSchema = z.object({
  exports: z.array(modelExportSchema),
  /** Agents that may run this model's exports, online now (0: queued exports wait for one). */
  agentsOnline: z.number(),
  /**
   * Whether anything can run this model's exports (ADR 0022): an online agent that may take the
   * owner's jobs, or the server's built-in export worker (`local`: `off` by setting, `probing`
   * whether ultralytics can be imported here, `unavailable` with `reason`, `ready` to start on the
   * next export, `running`, `revoked` by an admin).
   */
  worker: z.object({
    available: z.boolean(),
    local: z.enum(['off', 'probing', 'unavailable', 'ready', 'running', 'revoked']),
    reason: z.string().nullable(),
  }),
});
export type ModelExports = z.infer<typeof modelExportsSchema>;
