// The Foundry VTT API surface the vtt-bridge module uses, and nothing else.
// Written from Foundry's public API reference (https://foundryvtt.com/api/,
// versions 12 and 13); where the versions differ both names are listed.
// The adapter reaches it only through src/foundry/foundry-api.js.

export {};

declare global {
  /** CONST.DOCUMENT_OWNERSHIP_LEVELS (v12, v13): NONE 0, LIMITED 1, OBSERVER 2, OWNER 3. */
  interface FoundryConst {
    DOCUMENT_OWNERSHIP_LEVELS: { NONE: 0; LIMITED: 1; OBSERVER: 2; OWNER: 3 };
  }

  /** A world Collection (foundry.utils.Collection / DocumentCollection): the members used. */
  interface FoundryCollection<T> {
    get(id: string): T | undefined;
    contents: T[];
    filter(fn: (value: T) => boolean): T[];
    find(fn: (value: T) => boolean): T | undefined;
  }

  interface FoundryUser {
    id: string;
    name: string;
    isGM: boolean;
    active: boolean;
    /** Set of Token placeables this user targets. */
    targets: Set<FoundryToken>;
  }

  interface FoundryUsers extends FoundryCollection<FoundryUser> {
    /** The active GM with the lowest id, or null (v11+). */
    activeGM: FoundryUser | null;
  }

  /** canvas.placeables.Token (v13) / Token (v12): members used. */
  interface FoundryToken {
    name: string;
    actor: FoundryActor | null;
  }

  /** TokenDocument: members used. */
  interface FoundryTokenDocument {
    id: string;
    parent: { id: string } | null;
  }

  interface FoundryItem {
    id: string;
    name: string;
    type: string;
    system: any;
    actor: FoundryActor | null;
  }

  interface FoundryActor {
    id: string;
    name: string;
    type: string;
    system: any;
    items: FoundryCollection<FoundryItem>;
    /** {userId | 'default': level} */
    ownership: Record<string, number>;
    /** Active status ids (v11+). */
    statuses: Set<string>;
    getFlag(scope: string, key: string): unknown;
    update(data: Record<string, unknown>, options?: Record<string, unknown>): Promise<FoundryActor | undefined>;
    /** v12+; replaces the removed Token#toggleEffect. */
    toggleStatusEffect(statusId: string, options?: { active?: boolean; overlay?: boolean }): Promise<unknown>;
    /** getActiveTokens(linked?, document?): with document true, TokenDocuments. */
    getActiveTokens(linked: boolean, document: true): FoundryTokenDocument[];
  }

  interface FoundryChatMessage {
    id: string;
    content: string;
    flags: Record<string, any>;
    getFlag(scope: string, key: string): unknown;
    update(data: Record<string, unknown>): Promise<unknown>;
  }

  interface ChatSpeakerData {
    scene?: string | null;
    actor?: string | null;
    token?: string | null;
    alias?: string;
  }

  interface ChatMessageCreateData {
    content: string;
    speaker: ChatSpeakerData;
    /** User ids; empty for a public message. */
    whisper: string[];
    flags: Record<string, unknown>;
    /** Roll instances (or their JSON); Dice So Nice animates them. */
    rolls: FoundryRoll[];
  }

  interface FoundryChatMessageClass {
    create(data: ChatMessageCreateData): Promise<FoundryChatMessage | undefined>;
    getSpeaker(options: { actor?: FoundryActor }): ChatSpeakerData;
  }

  interface FoundryRoll {
    total: number | undefined;
  }

  interface FoundryRollClass {
    /** Rebuilds an evaluated Roll from its serialized data (Roll#toJSON). */
    fromData(data: object): FoundryRoll;
  }

  interface FoundryCombatant {
    id: string;
    actorId: string | null;
    initiative: number | null;
    hidden: boolean;
  }

  interface FoundryCombat {
    id: string;
    round: number;
    turn: number | null;
    combatants: FoundryCollection<FoundryCombatant>;
    /** Combatants in turn order. */
    turns: FoundryCombatant[];
    update(data: Record<string, unknown>, options?: Record<string, unknown>): Promise<unknown>;
    delete(options?: Record<string, unknown>): Promise<unknown>;
    createEmbeddedDocuments(name: 'Combatant', data: object[], options?: Record<string, unknown>): Promise<unknown[]>;
    updateEmbeddedDocuments(name: 'Combatant', data: object[], options?: Record<string, unknown>): Promise<unknown[]>;
    deleteEmbeddedDocuments(name: 'Combatant', ids: string[], options?: Record<string, unknown>): Promise<unknown[]>;
  }

  interface FoundryCombatClass {
    create(data: { active?: boolean; scene?: string | null }, options?: Record<string, unknown>): Promise<FoundryCombat | undefined>;
  }

  /** ClientSettings#register config (scope 'world' | 'client'; v13 also 'user', unused). */
  interface SettingConfig {
    name: string;
    hint?: string;
    scope: 'world' | 'client';
    config: boolean;
    type: StringConstructor | BooleanConstructor | ObjectConstructor;
    default: unknown;
    choices?: Record<string, string>;
    onChange?: (value: unknown) => void;
  }

  interface SettingMenuConfig {
    name: string;
    label: string;
    hint: string;
    icon: string;
    /** A FormApplication (v12) / ApplicationV2 (v13) class; Foundry calls `new type().render(true)`. */
    type: new () => { render(force?: boolean): unknown };
    restricted: boolean;
  }

  interface FoundrySettings {
    register(namespace: string, key: string, config: SettingConfig): void;
    registerMenu(namespace: string, key: string, config: SettingMenuConfig): void;
    get(namespace: string, key: string): any;
    set(namespace: string, key: string, value: unknown): Promise<unknown>;
  }

  interface FoundryModule {
    id: string;
    /** Free slot modules use for their public API. */
    api?: object;
  }

  interface FoundryGame {
    user: FoundryUser;
    users: FoundryUsers;
    actors: FoundryCollection<FoundryActor>;
    messages: FoundryCollection<FoundryChatMessage>;
    modules: { get(id: string): FoundryModule | undefined };
    settings: FoundrySettings;
    system: { id: string };
    i18n: { lang: string; localize(key: string): string; format(key: string, data: Record<string, string | number>): string };
    /** The viewed scene's active combat, or null. */
    combat: FoundryCombat | null;
  }

  interface FoundryHooks {
    on(hook: string, fn: (...args: any[]) => unknown): number;
    once(hook: string, fn: (...args: any[]) => unknown): number;
  }

  /** foundry.applications.api.DialogV2 (v12+; the v1 Dialog is deprecated in v13). */
  interface DialogV2Class {
    prompt(options: {
      window: { title: string };
      content: string;
      rejectClose: boolean;
      ok: { label: string; callback: (event: Event, button: HTMLButtonElement, dialog: unknown) => unknown };
    }): Promise<unknown>;
  }

  /** The Foundry globals the module touches (globalThis in Foundry). */
  interface FoundryGlobals {
    game: FoundryGame;
    Hooks: FoundryHooks;
    CONFIG: { statusEffects: { id: string }[] };
    CONST: FoundryConst;
    ChatMessage: FoundryChatMessageClass;
    Roll: FoundryRollClass;
    Combat: FoundryCombatClass;
    ui: { notifications?: { info(text: string): unknown; warn(text: string): unknown; error(text: string): unknown } };
    foundry: { applications: { api: { DialogV2: DialogV2Class } } };
  }
}

/*
 * Hooks the module listens to, with their arguments (v12 | v13):
 *   init, ready                                   ()
 *   renderActorSheet      (v12, AppV1 sheets)     (app: ActorSheet, html: jQuery, data)
 *   renderActorSheetV2    (v13 ApplicationV2)     (app: ActorSheetV2, element: HTMLElement, context, options)
 *   renderChatMessage     (v12; deprecated v13)   (message: ChatMessage, html: jQuery, data)
 *   renderChatMessageHTML (v13)                   (message: ChatMessage, html: HTMLElement, context)
 *   renderTokenHUD                                (hud: TokenHUD, html: jQuery | HTMLElement, data)
 *   createActor / updateActor / deleteActor       (actor, changes | options, options | userId, userId)
 *   createItem / updateItem / deleteItem          (item, ...)
 *   combatRound / combatTurn                      (combat, updateData, updateOptions {direction})
 */
