/**
 * Files that hold secrets by their nature, whatever they contain: environment
 * files, private keys and keystores, package-registry and network credentials,
 * cloud credential files, Terraform state. Matched on the path relative to a
 * root, so a folder's name counts where it says what is inside (`.aws/`,
 * `.docker/`, `.kube/`).
 */
const SECRET_FILES: readonly RegExp[] = [
  /(^|\/)\.env($|\.)/,
  /(^|\/)\.envrc$/,
  /\.(pem|key|p8|p12|pfx|pkcs12|ppk|jks|keystore|gpg|kdbx|ovpn|tfstate)$/i,
  /\.tfstate\.backup$/i,
  /(^|\/)id_(rsa|dsa|ecdsa|ed25519|ecdsa_sk|ed25519_sk|xmss)(\.pub)?$/,
  /(^|\/)[._]?(npmrc|pypirc|netrc|pgpass|htpasswd|git-credentials)$/,
  /(^|\/)(credentials|secrets?)(\.[\w-]+)?\.(json|ya?ml|toml|ini|txt|xml|env|properties)$/i,
  /(^|\/)client_secrets?[\w.-]*\.json$/i,
  /(^|\/)[\w.-]*service[-_]?account[\w.-]*\.json$/i,
  /(^|\/)\.aws\/(credentials|config)$/,
  /(^|\/)\.docker\/config\.json$/,
  /(^|\/)\.kube\/config$/,
  /(^|\/)kubeconfig$/i,
];

/** True for a path (relative, `/`-separated) whose name says it holds secrets. */
export function isSecretFile(path: string): boolean {
  return SECRET_FILES.some((pattern) => pattern.test(path));
}
