//! What a SASS launch executed, instruction by instruction: the instruction mix (warp-level
//! executions per opcode, as Nsight Compute's Instruction Statistics section shows
//! `sass__inst_executed_per_opcode`, and the same grouped into opcode classes) and the
//! listing of one source line's SASS as Nsight Compute's Source page shows it (address, SASS
//! text, instructions executed, thread instructions executed).
//!
//! The opcode of an instruction is its mnemonic without modifiers or guard (`@!P0 LDG.E.128
//! R4, ...` is `LDG`). The classes are the sections of the Hopper instruction set table in
//! NVIDIA's CUDA Binary Utilities documentation ("Instruction Set Reference": floating point,
//! integer, conversion, movement, predicate, load/store, uniform datapath, texture, surface,
//! control, miscellaneous). The grouping is gpumemsim's way of summing the per-opcode counts;
//! Nsight Compute's own instruction classes are not reproduced or compared with the H200.

use std::collections::BTreeMap;

use serde::Serialize;

use super::profile::Profile;
use crate::ir::Kernel;

/// One SASS instruction of a source line, with its counters.
#[derive(Clone, Debug, Serialize)]
pub struct SassInst {
    /// Byte address in the kernel (`/*0240*/` in nvdisasm's listing).
    pub address: u32,
    /// The instruction as nvdisasm prints it.
    pub text: String,
    /// Warp-level executions (`smsp__inst_executed`, the Source page's "Instructions
    /// Executed").
    pub executed: u64,
    /// Thread-level executions, predicated-off lanes included
    /// (`smsp__sass_thread_inst_executed`, "Thread Instructions Executed").
    pub threads: u64,
    /// Thread-level executions whose guard held (`smsp__sass_thread_inst_executed_pred_on`).
    pub threads_pred_on: u64,
    /// The Source page's memory columns ([`super::source_page`]).
    #[serde(flatten)]
    pub memory: super::source_page::SourceMemory,
}

/// The opcode of a SASS instruction text: the mnemonic without guard and modifiers.
pub fn opcode(text: &str) -> &str {
    let mut it = text.split_whitespace();
    let first = match it.next() {
        Some(g) if g.starts_with('@') => it.next().unwrap_or(""),
        Some(o) => o,
        None => "",
    };
    let op = first.split('.').next().unwrap_or("");
    op.trim_end_matches(';')
}

/// The class of a SASS opcode: the section of the Hopper instruction set table that lists it
/// (see the module docs), `other` for an opcode the table does not list.
pub fn class(op: &str) -> &'static str {
    match op {
        "FADD" | "FADD32I" | "FCHK" | "FFMA" | "FFMA32I" | "FMNMX" | "FMUL" | "FMUL32I"
        | "FSEL" | "FSET" | "FSETP" | "FSWZADD" | "MUFU" | "HADD2" | "HADD2_32I" | "HFMA2"
        | "HFMA2_32I" | "HMMA" | "HMNMX2" | "HMUL2" | "HMUL2_32I" | "HSET2" | "HSETP2" | "DADD"
        | "DFMA" | "DMMA" | "DMUL" | "DSETP" => "floating point",
        "BMMA" | "BMSK" | "BREV" | "FLO" | "IABS" | "IADD" | "IADD3" | "IADD32I" | "IDP"
        | "IDP4A" | "IMAD" | "IMMA" | "IMNMX" | "IMUL" | "IMUL32I" | "ISCADD" | "ISCADD32I"
        | "ISETP" | "LEA" | "LOP" | "LOP3" | "LOP32I" | "POPC" | "SHF" | "SHL" | "SHR"
        | "VABSDIFF" | "VABSDIFF4" | "VIADD" | "VIADDMNMX" | "VIMNMX" => "integer",
        "F2F" | "F2I" | "I2F" | "I2I" | "I2IP" | "I2FP" | "F2IP" | "FRND" | "F2FP" => "conversion",
        "MOV" | "MOV32I" | "MOVM" | "PRMT" | "SEL" | "SGXT" | "SHFL" => "movement",
        "PLOP3" | "PSETP" | "P2R" | "R2P" => "predicate",
        "FENCE" | "LD" | "LDC" | "LDG" | "LDGDEPBAR" | "LDGSTS" | "LDL" | "LDS" | "LDSM"
        | "STSM" | "ST" | "STG" | "STL" | "STS" | "MATCH" | "QSPC" | "ATOM" | "ATOMS" | "ATOMG"
        | "RED" | "REDG" | "CCTL" | "CCTLL" | "ERRBAR" | "MEMBAR" | "SYNCS" => "load/store",
        "TEX" | "TLD" | "TLD4" | "TMML" | "TXD" | "TXQ" => "texture",
        "SUATOM" | "SULD" | "SURED" | "SUST" => "surface",
        "BMOV" | "BPT" | "BRA" | "BREAK" | "BRX" | "BRXU" | "BSSY" | "BSYNC" | "CALL"
        | "CGAERRBAR" | "ELECT" | "ENDCOLLECTIVE" | "EXIT" | "JMP" | "JMX" | "JMXU" | "KILL"
        | "NANOSLEEP" | "PREEXIT" | "RET" | "RPCMOV" | "WARPSYNC" | "YIELD" => "control",
        "B2R" | "BAR" | "CS2R" | "DEPBAR" | "GETLMEMBASE" | "LEPC" | "NOP" | "PMTRIG" | "S2R"
        | "SETCTAID" | "SETLMEMBASE" | "VOTE" => "miscellaneous",
        "R2UR" | "REDUX" | "S2UR" | "VOTEU" => "uniform datapath",
        _ if op.starts_with('U') => "uniform datapath",
        _ => "other",
    }
}

/// The instruction mix of a launch: warp-level executions per opcode and per class.
#[derive(Clone, Debug, Default, Serialize)]
pub struct InstMix {
    /// Executions per opcode (`sass__inst_executed_per_opcode`).
    pub opcodes: BTreeMap<String, u64>,
    /// Executions per class (see [`class`]).
    pub classes: BTreeMap<String, u64>,
}

impl InstMix {
    /// The mix of the instructions `pcs` of `kernel` (all of them with `None`).
    pub fn of(kernel: &Kernel, profile: &Profile, pcs: Option<&[u32]>) -> InstMix {
        let mut mix = InstMix::default();
        let mut add = |pc: usize| {
            let n = profile.warp_inst.get(pc).copied().unwrap_or(0);
            if n == 0 {
                return;
            }
            let op = kernel.info.get(pc).map_or("", |i| opcode(&i.text));
            *mix.opcodes.entry(op.to_string()).or_insert(0) += n;
            *mix.classes.entry(class(op).to_string()).or_insert(0) += n;
        };
        match pcs {
            Some(p) => p.iter().for_each(|&pc| add(pc as usize)),
            None => (0..profile.warp_inst.len()).for_each(add),
        }
        mix
    }

    /// The classes, most executed first, as `name share%` (for the text report).
    pub fn render_classes(&self) -> String {
        let total: u64 = self.classes.values().sum();
        let mut v: Vec<(&String, &u64)> = self.classes.iter().collect();
        v.sort_by_key(|(k, n)| (std::cmp::Reverse(**n), k.as_str()));
        v.iter()
            .map(|(k, n)| format!("{k} {:.1}%", 100.0 * **n as f64 / total.max(1) as f64))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The `n` most executed opcodes, as `OP share%`.
    pub fn render_top_opcodes(&self, n: usize) -> String {
        let total: u64 = self.opcodes.values().sum();
        let mut v: Vec<(&String, &u64)> = self.opcodes.iter().collect();
        v.sort_by_key(|(k, c)| (std::cmp::Reverse(**c), k.as_str()));
        v.iter()
            .take(n)
            .map(|(k, c)| format!("{k} {:.1}%", 100.0 * **c as f64 / total.max(1) as f64))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_opcode_is_the_mnemonic_without_guard_and_modifiers() {
        assert_eq!(opcode("@!P0 LDG.E.128 R4, desc[UR4][R2.64]"), "LDG");
        assert_eq!(opcode("STL [R1+0x4], R3"), "STL");
        assert_eq!(opcode("EXIT"), "EXIT");
        assert_eq!(opcode("@P1 BRA `(.L_x_3)"), "BRA");
        assert_eq!(opcode(""), "");
    }

    #[test]
    fn classes_are_the_sections_of_the_instruction_set_table() {
        assert_eq!(class("LDL"), "load/store");
        assert_eq!(class("FFMA"), "floating point");
        assert_eq!(class("IMAD"), "integer");
        assert_eq!(class("ULDC"), "uniform datapath");
        assert_eq!(class("S2UR"), "uniform datapath");
        assert_eq!(class("BSYNC"), "control");
        assert_eq!(class("S2R"), "miscellaneous");
        assert_eq!(class("XYZZY"), "other");
    }
}
