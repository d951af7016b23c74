import { type AnyTool, toolFunctionDefinition } from '@riskgate/risk';
import type OpenAI from 'openai';

/** The tools a conversation offers, each with the optional risk_level in its JSON schema. */
export class ToolRegistry {
  private readonly tools = new Map<string, AnyTool>();

  constructor(tools: readonly AnyTool[] = []) {
    for (const tool of tools) this.register(tool);
  }

  register(tool: AnyTool): void {
    if (this.tools.has(tool.name)) throw new Error(`a tool named ${tool.name} is already registered`);
    this.tools.set(tool.name, tool);
  }

  get(name: string): AnyTool | undefined {
    return this.tools.get(name);
  }

  get names(): readonly string[] {
    return [...this.tools.keys()];
  }

  /** For the chat-completions `tools` parameter. */
  definitions(): OpenAI.Chat.Completions.ChatCompletionFunctionTool[] {
    return [...this.tools.values()].map((tool) => {
      const definition = toolFunctionDefinition(tool);
      return {
        type: 'function',
        function: { name: definition.name, description: definition.description, parameters: definition.parameters },
      };
    });
  }
}
