//! Loads objects emitted by [`crate::emit`] into the running process with
//! LLVM's ORC LLJIT, so `moonc run` and `moonc bench` execute exactly the
//! machine code `moonc compile` writes. Symbols resolve to the process
//! (libc, libm), glibc's libmvec (loaded on first use) and the moonrt
//! runtime functions compiled into the caller.

use crate::{Error, Result, Signature, interface};
use llvm_sys::{
    error::{LLVMDisposeErrorMessage, LLVMErrorRef, LLVMGetErrorMessage},
    orc2::{
        LLVMJITEvaluatedSymbol, LLVMJITSymbolFlags, LLVMOrcAbsoluteSymbols, LLVMOrcCSymbolMapPair,
        LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess, LLVMOrcExecutionSessionIntern,
        LLVMOrcJITDylibAddGenerator, LLVMOrcJITDylibDefine,
        lljit::{
            LLVMOrcCreateLLJIT, LLVMOrcDisposeLLJIT, LLVMOrcLLJITAddObjectFile,
            LLVMOrcLLJITGetExecutionSession, LLVMOrcLLJITGetGlobalPrefix,
            LLVMOrcLLJITGetMainJITDylib, LLVMOrcLLJITLookup, LLVMOrcLLJITRef,
        },
    },
};
use std::{
    ffi::{CStr, CString, c_void},
    ptr,
};

/// A symbol name for LLVM (symbol names hold no NUL).
fn c_string(text: &str) -> CString {
    CString::new(text).unwrap_or_default()
}

/// Compiled code loaded into this process; dropping it unloads the code.
pub struct Jit {
    raw: LLVMOrcLLJITRef,
}

/// Turns an LLVM error into ours (consuming it).
fn check(error: LLVMErrorRef) -> Result<()> {
    if error.is_null() {
        return Ok(());
    }
    // SAFETY: a non-null error is consumed exactly once here.
    unsafe {
        let message = LLVMGetErrorMessage(error);
        let text = CStr::from_ptr(message).to_string_lossy().into_owned();
        LLVMDisposeErrorMessage(message);
        Err(Error::Llvm(text))
    }
}

/// LLVM's OpenMP runtime, which parallel loops call (`__kmpc_fork_call`).
const OPENMP_RUNTIME: &std::ffi::CStr = c"libomp.so.5";

impl Jit {
    /// Loads an object file, resolving its undefined symbols against the
    /// process, libmvec and `runtime` (name, address) pairs.
    pub fn load(object: &[u8], runtime: &[(&str, *const c_void)]) -> Result<Jit> {
        // Vector math lives in libmvec; the process search below finds it
        // once it is loaded globally. Without it only scalar calls resolve.
        if cfg!(all(target_arch = "x86_64", target_os = "linux")) {
            // SAFETY: loads a system library by name.
            let failed =
                unsafe { llvm_sys::support::LLVMLoadLibraryPermanently(c"libmvec.so.1".as_ptr()) };
            if failed != 0 {
                tracing::warn!("libmvec.so.1 could not be loaded");
            }
        }
        // Loops moon-parallelize made parallel call the OpenMP runtime.
        if moonc_ir::options::parallel_min_trips() > 0 {
            // SAFETY: loads a system library by name.
            let failed =
                unsafe { llvm_sys::support::LLVMLoadLibraryPermanently(OPENMP_RUNTIME.as_ptr()) };
            if failed != 0 {
                return Err(Error::Llvm(
                    "--moon-parallel-min-trips needs LLVM's OpenMP runtime, libomp.so.5 \
                     (Debian: libomp-22-dev), which could not be loaded"
                        .into(),
                ));
            }
        }
        let mut raw = ptr::null_mut();
        // SAFETY: FFI calls on objects created here; ownership of the
        // generator, the symbol map and the object buffer moves to ORC.
        unsafe {
            check(LLVMOrcCreateLLJIT(&mut raw, ptr::null_mut()))?;
            let jit = Jit { raw };
            let dylib = LLVMOrcLLJITGetMainJITDylib(raw);
            let mut generator = ptr::null_mut();
            check(LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess(
                &mut generator,
                LLVMOrcLLJITGetGlobalPrefix(raw),
                None,
                ptr::null_mut(),
            ))?;
            LLVMOrcJITDylibAddGenerator(dylib, generator);

            let session = LLVMOrcLLJITGetExecutionSession(raw);
            let mut pairs: Vec<LLVMOrcCSymbolMapPair> = runtime
                .iter()
                .map(|(name, address)| LLVMOrcCSymbolMapPair {
                    Name: LLVMOrcExecutionSessionIntern(session, c_string(name).as_ptr()),
                    Sym: LLVMJITEvaluatedSymbol {
                        Address: *address as u64,
                        Flags: LLVMJITSymbolFlags {
                            GenericFlags: llvm_sys::orc2::LLVMJITSymbolGenericFlags::LLVMJITSymbolGenericFlagsExported
                                as u8,
                            TargetFlags: 0,
                        },
                    },
                })
                .collect();
            if !pairs.is_empty() {
                let unit = LLVMOrcAbsoluteSymbols(pairs.as_mut_ptr(), pairs.len());
                check(LLVMOrcJITDylibDefine(dylib, unit))?;
            }

            let buffer = llvm_sys::core::LLVMCreateMemoryBufferWithMemoryRangeCopy(
                object.as_ptr().cast(),
                object.len(),
                c"moonc-object".as_ptr(),
            );
            check(LLVMOrcLLJITAddObjectFile(raw, dylib, buffer))?;
            Ok(jit)
        }
    }

    /// The address of a symbol of the loaded code (materializing it).
    pub fn lookup(&self, symbol: &str) -> Result<*const c_void> {
        let mut address = 0;
        // SAFETY: the JIT is live; the name is NUL-terminated.
        unsafe {
            check(LLVMOrcLLJITLookup(
                self.raw,
                &mut address,
                c_string(symbol).as_ptr(),
            ))?
        };
        Ok(address as *const c_void)
    }

    /// The packed entry point of a function compiled with its signature in
    /// `emit`'s `packed` list: call it with one slot per LLVM-level
    /// parameter (each memref is its descriptor's fields, in order) followed
    /// by one slot per result, each slot holding the address of the value.
    pub fn packed(&self, signature: &Signature) -> Result<unsafe extern "C" fn(*mut *mut c_void)> {
        let address = self.lookup(&interface::packed_name(&signature.name))?;
        // SAFETY: `_moonc_packed_*` functions have exactly this signature.
        Ok(unsafe {
            std::mem::transmute::<*const c_void, unsafe extern "C" fn(*mut *mut c_void)>(address)
        })
    }
}

impl Drop for Jit {
    fn drop(&mut self) {
        // SAFETY: created by LLVMOrcCreateLLJIT, disposed once.
        let _ = check(unsafe { LLVMOrcDisposeLLJIT(self.raw) });
    }
}
