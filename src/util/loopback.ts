/** Plain http is accepted only towards this machine; everywhere else a provider must use https. */
export const isLoopbackHost = (hostname: string): boolean =>
  hostname === 'localhost' || hostname === '[::1]' || hostname === '::1' || /^127(\.\d{1,3}){3}$/.test(hostname);

export const protocolProblem = (url: URL): string | undefined => {
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && isLoopbackHost(url.hostname)) return undefined;
  return `'${url.href}' must use https (plain http is accepted on loopback addresses only)`;
};
