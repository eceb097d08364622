// `project-runtime-mock/testcontainers`: the mock's container image under Testcontainers, with its URL and a typed client.
import { AbstractStartedContainer, GenericContainer, getContainerRuntimeClient, Wait, type StartedTestContainer } from 'testcontainers';
import { createClient, type Credentials, type MockClient } from '../client/index.js';
import { RUNTIME_MOCK_IMAGE, RUNTIME_MOCK_PORT } from './image.js';

export { RUNTIME_MOCK_IMAGE, RUNTIME_MOCK_PORT } from './image.js';

/**
 * The mock as a Testcontainers module: every GenericContainer option applies (withEnvironment({ PRM_SPEED: '60' }),
 * withNetwork, withNetworkAliases, ...). It is ready when the server prints its listening line. The control surface
 * answers the host name Testcontainers reaches the engine by (localhost, or a gateway address when the tests run in a
 * container themselves), and the names given to withAllowedHosts (network aliases other containers use).
 */
export class RuntimeMockContainer extends GenericContainer {
  #controlToken: string | undefined;
  readonly #allowedHosts: string[] = [];

  constructor(image: string = RUNTIME_MOCK_IMAGE) {
    super(image);
    this.withExposedPorts(RUNTIME_MOCK_PORT)
      .withWaitStrategy(Wait.forLogMessage(/listening on http:/))
      .withStartupTimeout(60_000);
  }

  /** Every /_mock request must carry this token (PRM_CONTROL_TOKEN); the started container's clients send it. */
  withControlToken(token: string): this {
    this.#controlToken = token;
    return this.withEnvironment({ PRM_CONTROL_TOKEN: token });
  }

  /** Host names the control surface answers besides the engine's host (PRM_ALLOWED_HOST): `withAllowedHosts('mock')`. */
  withAllowedHosts(...hosts: string[]): this {
    this.#allowedHosts.push(...hosts);
    return this;
  }

  override async start(): Promise<StartedRuntimeMockContainer> {
    const { info } = await getContainerRuntimeClient();
    this.withEnvironment({ PRM_ALLOWED_HOST: [info.containerRuntime.host, ...this.#allowedHosts].join(',') });
    return new StartedRuntimeMockContainer(await super.start(), this.#controlToken);
  }
}

export class StartedRuntimeMockContainer extends AbstractStartedContainer {
  /** Where the mock answers from this process: `http://<engine host>:<mapped port>`. */
  readonly baseUrl: string;
  readonly #controlToken: string | undefined;

  constructor(started: StartedTestContainer, controlToken: string | undefined) {
    super(started);
    this.#controlToken = controlToken;
    const host = started.getHost();
    this.baseUrl = `http://${host.includes(':') ? `[${host}]` : host}:${started.getMappedPort(RUNTIME_MOCK_PORT)}`;
  }

  /** A typed client of the v3 API and the control surface (with the control token, if one was set). */
  client(credentials: Credentials = {}): MockClient {
    return createClient({ baseUrl: this.baseUrl, ...(this.#controlToken ? { controlToken: this.#controlToken } : {}), ...credentials });
  }
}
