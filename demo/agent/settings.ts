import type { ApiKind } from '../../src/agent/index.js';

const STORE_KEY = 'sandpit.demo.agent';

/** What the agent panel needs to reach a model. */
export interface AgentSettings {
  api: ApiKind;
  endpoint: string;
  model: string;
  apiKey: string;
  /** keep the key in this browser's storage; otherwise it lives only as long as the page */
  remember: boolean;
  maxSteps: number;
}

const DEFAULTS: AgentSettings = {
  api: 'openai',
  endpoint: 'http://127.0.0.1:11434/v1',
  model: '',
  apiKey: '',
  remember: false,
  maxSteps: 25,
};

/** The settings saved last time; the key is there only if the person ticked "remember". */
export function loadSettings(): AgentSettings {
  try {
    const saved = JSON.parse(localStorage.getItem(STORE_KEY) ?? 'null') as Partial<AgentSettings> | null;
    if (!saved || typeof saved !== 'object') return { ...DEFAULTS };
    return {
      api: saved.api === 'anthropic' ? 'anthropic' : 'openai',
      endpoint: typeof saved.endpoint === 'string' ? saved.endpoint : DEFAULTS.endpoint,
      model: typeof saved.model === 'string' ? saved.model : '',
      apiKey: saved.remember === true && typeof saved.apiKey === 'string' ? saved.apiKey : '',
      remember: saved.remember === true,
      maxSteps: Number.isInteger(saved.maxSteps) && saved.maxSteps! > 0 ? saved.maxSteps! : DEFAULTS.maxSteps,
    };
  } catch {
    return { ...DEFAULTS };
  }
}

/** Save the settings; without "remember" the key is left out (and any earlier saved key removed). */
export function saveSettings(settings: AgentSettings): void {
  const { apiKey, ...rest } = settings;
  try {
    localStorage.setItem(STORE_KEY, JSON.stringify(settings.remember ? { ...rest, apiKey } : rest));
  } catch {
    // Storage may be off (private mode); the settings then last as long as the page.
  }
}
