/** The private key the e2e fake Roboflow accepts for workspace "acme" (a test value, not a secret). */
export const E2E_ROBOFLOW_KEY = 'e2ePrivateRoboflowKey0123456789';
