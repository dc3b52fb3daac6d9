/** What the client sends for a realm (wire-iam.md, Realms); start-up provisioning reads the same from the configuration. */
export interface RealmFields {
  name: string;
  openIdConfig: string;
  logo?: string;
  acceptedAudiences?: string[];
}
