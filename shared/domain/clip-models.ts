/**
 * The CLIP models Immich knows and the length of their embeddings (Immich 3.1's `CLIP_MODEL_INFO`,
 * server/src/constants.ts): a configuration naming another model is refused, as Immich refuses it
 * (docs/machine-learning.md, "Settings"), and an answer of another length is a wrong answer.
 */
const dims: Record<number, readonly string[]> = {
  512: [
    'RN101__openai',
    'RN101__yfcc15m',
    'ViT-B-16__laion400m_e31',
    'ViT-B-16__laion400m_e32',
    'ViT-B-16__openai',
    'ViT-B-32__laion2b-s34b-b79k',
    'ViT-B-32__laion2b_e16',
    'ViT-B-32__laion400m_e31',
    'ViT-B-32__laion400m_e32',
    'ViT-B-32__openai',
    'XLM-Roberta-Base-ViT-B-32__laion5b_s13b_b90k',
    'XLM-Roberta-Large-Vit-B-32',
  ],
  640: ['RN50x4__openai', 'ViT-B-16-plus-240__laion400m_e31', 'ViT-B-16-plus-240__laion400m_e32', 'XLM-Roberta-Large-Vit-B-16Plus'],
  768: [
    'LABSE-Vit-L-14',
    'RN50x16__openai',
    'ViT-B-16-SigLIP-256__webli',
    'ViT-B-16-SigLIP-384__webli',
    'ViT-B-16-SigLIP-512__webli',
    'ViT-B-16-SigLIP-i18n-256__webli',
    'ViT-B-16-SigLIP__webli',
    'ViT-L-14-336__openai',
    'ViT-L-14-quickgelu__dfn2b',
    'ViT-L-14__laion2b-s32b-b82k',
    'ViT-L-14__laion400m_e31',
    'ViT-L-14__laion400m_e32',
    'ViT-L-14__openai',
    'XLM-Roberta-Large-Vit-L-14',
    'nllb-clip-base-siglip__mrl',
    'nllb-clip-base-siglip__v1',
    'ViT-B-16-SigLIP2__webli',
    'ViT-B-32-SigLIP2-256__webli',
  ],
  1024: [
    'RN50__cc12m',
    'RN50__openai',
    'RN50__yfcc15m',
    'RN50x64__openai',
    'ViT-H-14-378-quickgelu__dfn5b',
    'ViT-H-14-quickgelu__dfn5b',
    'ViT-H-14__laion2b-s32b-b79k',
    'ViT-L-16-SigLIP-256__webli',
    'ViT-L-16-SigLIP-384__webli',
    'ViT-g-14__laion2b-s12b-b42k',
    'XLM-Roberta-Large-ViT-H-14__frozen_laion5b_s13b_b90k',
    'ViT-L-16-SigLIP2-256__webli',
    'ViT-L-16-SigLIP2-384__webli',
    'ViT-L-16-SigLIP2-512__webli',
  ],
  1152: [
    'ViT-SO400M-14-SigLIP-384__webli',
    'nllb-clip-large-siglip__mrl',
    'nllb-clip-large-siglip__v1',
    'ViT-SO400M-14-SigLIP2__webli',
    'ViT-SO400M-14-SigLIP2-378__webli',
    'ViT-SO400M-16-SigLIP2-256__webli',
    'ViT-SO400M-16-SigLIP2-384__webli',
    'ViT-SO400M-16-SigLIP2-512__webli',
  ],
  1536: ['ViT-gopt-16-SigLIP2-256__webli', 'ViT-gopt-16-SigLIP2-384__webli'],
};

const byName = new Map(Object.entries(dims).flatMap(([size, names]) => names.map((name) => [name, Number(size)] as const)));

/** Immich's `cleanModelName`: the last `/`-separated part (`immich-app/ViT-B-32__openai`), `:` as `_`. */
export const cleanClipModelName = (modelName: string): string | undefined => {
  const token = modelName.split('/').at(-1);
  return token ? token.replaceAll(':', '_') : undefined;
};

/** The length of a known model's embeddings; undefined for a name Immich does not know. */
export const clipDimensions = (modelName: string): number | undefined => {
  const name = cleanClipModelName(modelName);
  return name === undefined ? undefined : byName.get(name);
};

/** Immich's refusal of an unknown model (its `ConfigValidate` handler in smart-info.service.ts). */
export const unknownClipModelMessage = (modelName: string): string =>
  `Unknown CLIP model: ${modelName}. Please check the model name for typos and confirm this is a supported model.`;
