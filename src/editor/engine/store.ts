// The one store shape of the editor: the engine and every feature keep their state as one
// immutable snapshot behind getState() and tell subscribers when it was replaced; React reads any
// of them through useEngineStore(store, selector) (ui/useEngineStore.ts).
import { Observable } from '@babylonjs/core/Misc/observable';

export interface Store<S> {
  getState(): S;
  /** Calls `listener` after every change; returns what unsubscribes it. */
  subscribe(listener: () => void): () => void;
}

/** A feature's state: replaced by set() (a new snapshot), announced on onChanged. */
export class FeatureStore<S extends object> implements Store<S> {
  /** Fires with the new snapshot after every change. */
  readonly onChanged = new Observable<S>();

  constructor(private state: S) {}

  getState = (): S => this.state;

  subscribe = (listener: () => void): (() => void) => {
    const observer = this.onChanged.add(() => listener());
    return () => this.onChanged.remove(observer);
  };

  /**
   * A new snapshot with `patch` applied; `beforeNotify` sees it before the subscribers hear of it
   * (a feature publishing part of it in the engine's state first).
   */
  set(patch: Partial<S>, beforeNotify?: (state: S, previous: S) => void): void {
    const previous = this.state;
    this.state = { ...previous, ...patch };
    beforeNotify?.(this.state, previous);
    this.onChanged.notifyObservers(this.state);
  }

  /** Forgets every subscriber (the feature is disposed). */
  clear(): void {
    this.onChanged.clear();
  }
}
