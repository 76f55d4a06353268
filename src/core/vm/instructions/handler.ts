import type { Instr } from '../decode';
import type { Frame } from '../frame';

/**
 * Runs one instruction on the frame. Fork checks and fixed gas are charged by the interpreter before
 * the handler runs, unless the instruction is listed in `CHARGES_ITS_OWN_GAS` (the node charges
 * those after popping, so a type or arithmetic failure there costs no gas).
 */
export type Handler = (frame: Frame, instr: Instr) => void;

export type HandlerTable = Readonly<Record<string, Handler>>;
