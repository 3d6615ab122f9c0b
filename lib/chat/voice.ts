// The seam for Telegram voice notes: text in, an audio file out. The core
// binds OpenAI speech (openai-voice.ts) unless the host brings its own
// (CoreOptions.voiceSynth); when synthesis fails, reply.telegram sends text.

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
