//! The `widerow` binary: command line and interactive shell. Everything
//! else lives in the library.

mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}
