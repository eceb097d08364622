// The chat webhook suites' request parts: the demo's binding, its webhook path and secret header, and an update body.
import { DEMO } from './demo.js';

export const BINDING = DEMO.connections.chatBinding;
export const hook = (binding: string) => `/api/v3/connections/${binding}/chatapp/webhook`;
export const SECRET = { 'X-Chatapp-Secret-Token': DEMO.chatSecret };
export const update = (update_id: number, from: Record<string, unknown> = { id: 777000111, display_name: 'New Person' }, text = 'Where is my order?') => ({
  update_id,
  message: { from, text },
});
