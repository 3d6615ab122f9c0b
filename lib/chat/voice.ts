// The seam for Telegram voice notes: text in, an audio file out. No
// implementation ships in lib/ yet; until a host or a provider adapter binds
// one (CoreOptions.voiceSynth), reply.telegram voice:true sends text instead.

/** An audio file Telegram plays as a voice note: OGG/Opus, MP3 or M4A. */
export interface VoiceClip {
  bytes: Uint8Array;
  /** e.g. `audio/ogg`, `audio/mpeg`. */
  mime: string;
  /** File name with the matching extension, e.g. `reply.ogg`. */
  name: string;
}

/** Speech synthesis for voice notes. */
export interface VoiceSynth {
  /** Rejects with an Error whose message is one short sentence (never a key). */
  synthesize(text: string, voice: string): Promise<VoiceClip>;
}
