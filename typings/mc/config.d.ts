// "mc/config": the frozen `config` object of the build's manifests (plus
// key=value pairs given to mcconfig). Its shape is whatever the manifests say;
// hosts/device/config.ts reads the keys Halo uses and checks their types.

declare const config: { readonly [key: string]: unknown };
export default config;
