/** The private key the e2e fake Roboflow accepts for workspace "acme" (a test value, not a secret). */
export const E2E_ROBOFLOW_KEY = 'e2ePrivateRoboflowKey0123456789';
/**
 * A second key for workspace "acme", used only by the spec that cuts the fake off the network: the
 * fake drops that key's calls alone, so a spec running beside it with E2E_ROBOFLOW_KEY is not cut off.
 */
export const E2E_ROBOFLOW_OFFLINE_KEY = 'e2eOfflineRoboflowKey0123456789';
