// GradBench's `lstm` eval (ADBench's LSTM, whose weight "matrices" are
// diagonal), written as GradBench's reference C++ writes it
// (cpp/gradbench/evals/lstm.hpp): the helpers sigmoid, logsumexp,
// lstm_model, lstm_predict and the objective's loop over the sequence, the
// loops and in-place updates as written, the same flat row-major layout.
// Reverse mode inlines the helpers (docs/autodiff.md); the hand-shaped form
// the suite timed before is bench/suite/workloads/shaped/lstm.mlir.
//
// func.func @lstm(%main_params: memref<?x?xf64>, %extra_params: memref<?x?xf64>,
//                 %state: memref<?x?xf64>, %sequence: memref<?x?xf64>) -> f64
//
// The arguments are GradBench's `LSTMInput` fields, in its order, each a
// row-major matrix exactly as the JSON's list of rows: main_params (2l x 4b),
// extra_params (3 x b), state (2l x b, read only: the reference copies it
// and updates the copy in place), sequence (c x b). GradBench's "objective"
// is the result; its "jacobian" the gradient with respect to arguments 0
// and 1 (`--wrt 0,1`), each flattened row-major and concatenated. No
// argument is written.
//
// The reference's `from_json` flattens each matrix row-major; here each
// argument is viewed flat (memref.collapse_shape) and the reference's
// pointers into it (MainParams, ExtraParams, State, InputSequence) are
// offsets / subviews of the flat buffer:
//   layer j's params at main_params[8 b j] (weights forget, ingate, outgate,
//   change at +0, +b, +2b, +3b; biases at +4b ...), layer j's state at
//   state[2 b j] (hidden at +0, cell at +b), character t at sequence[b t],
//   extra_params: in_weight at +0, out_weight at +b, out_bias at +2b.
// One departure: lstm_predict's `layer_output` pointer (the output, then
// each layer's hidden state) is two call sites of lstm_model under
// `scf.if (i == 0)`, since reverse mode does not yet differentiate a memref
// chosen by a branch.

// template<typename T> T sigmoid(T x) { return 1 / (1 + exp(-x)); }
func.func private @sigmoid(%x: f64) -> f64 {
  %one = arith.constant 1.0 : f64
  %n = arith.negf %x : f64
  %e = math.exp %n : f64
  %d = arith.addf %one, %e : f64
  %r = arith.divf %one, %d : f64
  return %r : f64
}

// log(sum(exp(x), 2))
func.func private @logsumexp(%vect: memref<?xf64>, %sz: index) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f64
  %two = arith.constant 2.0 : f64
  %sum = scf.for %i = %c0 to %sz step %c1 iter_args(%s = %zero) -> f64 {
    %v = memref.load %vect[%i] : memref<?xf64>
    %e = math.exp %v : f64
    %s2 = arith.addf %s, %e : f64
    scf.yield %s2 : f64
  }
  %sum2 = arith.addf %sum, %two : f64
  %r = math.log %sum2 : f64
  return %r : f64
}

// The LSTM model: one layer, updating its state (hidden, cell) in place.
// %params: LayerParams (weight.{forget,ingate,outgate,change} at 0,h,2h,3h;
// bias.* at 4h,5h,6h,7h); %state: LayerState (hidden at 0, cell at h).
func.func private @lstm_model(%hsize: index,
                              %params: memref<?xf64, strided<[1], offset: ?>>,
                              %state: memref<?xf64, strided<[1], offset: ?>>,
                              %input: memref<?xf64, strided<[1], offset: ?>>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c6 = arith.constant 6 : index
  %c7 = arith.constant 7 : index
  %h2 = arith.muli %hsize, %c2 : index
  %h3 = arith.muli %hsize, %c3 : index
  %h4 = arith.muli %hsize, %c4 : index
  %h5 = arith.muli %hsize, %c5 : index
  %h6 = arith.muli %hsize, %c6 : index
  %h7 = arith.muli %hsize, %c7 : index
  scf.for %i = %c0 to %hsize step %c1 {
    // gates for i-th cell/hidden
    %in = memref.load %input[%i] : memref<?xf64, strided<[1], offset: ?>>
    %wf = memref.load %params[%i] : memref<?xf64, strided<[1], offset: ?>>
    %ibf = arith.addi %h4, %i : index
    %bf = memref.load %params[%ibf] : memref<?xf64, strided<[1], offset: ?>>
    %xf0 = arith.mulf %in, %wf : f64
    %xf = arith.addf %xf0, %bf : f64
    %forget = func.call @sigmoid(%xf) : (f64) -> f64

    %hid = memref.load %state[%i] : memref<?xf64, strided<[1], offset: ?>>
    %iwi = arith.addi %hsize, %i : index
    %wi = memref.load %params[%iwi] : memref<?xf64, strided<[1], offset: ?>>
    %ibi = arith.addi %h5, %i : index
    %bi = memref.load %params[%ibi] : memref<?xf64, strided<[1], offset: ?>>
    %xi0 = arith.mulf %hid, %wi : f64
    %xi = arith.addf %xi0, %bi : f64
    %ingate = func.call @sigmoid(%xi) : (f64) -> f64

    %in2 = memref.load %input[%i] : memref<?xf64, strided<[1], offset: ?>>
    %iwo = arith.addi %h2, %i : index
    %wo = memref.load %params[%iwo] : memref<?xf64, strided<[1], offset: ?>>
    %ibo = arith.addi %h6, %i : index
    %bo = memref.load %params[%ibo] : memref<?xf64, strided<[1], offset: ?>>
    %xo0 = arith.mulf %in2, %wo : f64
    %xo = arith.addf %xo0, %bo : f64
    %outgate = func.call @sigmoid(%xo) : (f64) -> f64

    %hid2 = memref.load %state[%i] : memref<?xf64, strided<[1], offset: ?>>
    %iwc = arith.addi %h3, %i : index
    %wc = memref.load %params[%iwc] : memref<?xf64, strided<[1], offset: ?>>
    %ibc = arith.addi %h7, %i : index
    %bc = memref.load %params[%ibc] : memref<?xf64, strided<[1], offset: ?>>
    %xc0 = arith.mulf %hid2, %wc : f64
    %xc = arith.addf %xc0, %bc : f64
    %change = math.tanh %xc : f64

    // state.cell[i] = state.cell[i] * forget + ingate * change;
    %ic = arith.addi %hsize, %i : index
    %cell = memref.load %state[%ic] : memref<?xf64, strided<[1], offset: ?>>
    %m1 = arith.mulf %cell, %forget : f64
    %m2 = arith.mulf %ingate, %change : f64
    %cn = arith.addf %m1, %m2 : f64
    memref.store %cn, %state[%ic] : memref<?xf64, strided<[1], offset: ?>>
    // state.hidden[i] = outgate * tanh(state.cell[i]);
    %cell2 = memref.load %state[%ic] : memref<?xf64, strided<[1], offset: ?>>
    %tc = math.tanh %cell2 : f64
    %hn = arith.mulf %outgate, %tc : f64
    memref.store %hn, %state[%i] : memref<?xf64, strided<[1], offset: ?>>
  }
  return
}

// Predict LSTM output given an input.
func.func private @lstm_predict(%l: index, %b: index,
                                %main_params: memref<?xf64>, %extra_params: memref<?xf64>,
                                %state: memref<?xf64>,
                                %input: memref<?xf64, strided<[1], offset: ?>>,
                                %output: memref<?xf64>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c8 = arith.constant 8 : index
  %b2 = arith.muli %b, %c2 : index
  %b8 = arith.muli %b, %c8 : index
  // for (int i = 0; i < b; ++i) output[i] = input[i] * extra_params.in_weight[i];
  scf.for %i = %c0 to %b step %c1 {
    %x = memref.load %input[%i] : memref<?xf64, strided<[1], offset: ?>>
    %w = memref.load %extra_params[%i] : memref<?xf64>
    %y = arith.mulf %x, %w : f64
    memref.store %y, %output[%i] : memref<?xf64>
  }
  // T* layer_output = output;
  %out = memref.cast %output : memref<?xf64> to memref<?xf64, strided<[1], offset: ?>>
  // for (int i = 0; i < l; ++i) {
  //   lstm_model(b, main_params.layer_params[i], state.layer_state[i], layer_output);
  //   layer_output = state.layer_state[i].hidden;
  // }
  // (layer_output, a pointer reassigned in the loop, is `output` for i = 0
  // and the hidden state of layer i - 1 after.)
  scf.for %i = %c0 to %l step %c1 {
    %po = arith.muli %b8, %i : index
    %lp = memref.subview %main_params[%po] [%b8] [1] : memref<?xf64> to memref<?xf64, strided<[1], offset: ?>>
    %so = arith.muli %b2, %i : index
    %ls = memref.subview %state[%so] [%b2] [1] : memref<?xf64> to memref<?xf64, strided<[1], offset: ?>>
    %first = arith.cmpi eq, %i, %c0 : index
    // (MLIR's reverse mode cannot carry a memref through a loop or an
    // scf.if result, so the pointer's two values are two call sites.)
    scf.if %first {
      func.call @lstm_model(%b, %lp, %ls, %out) : (index, memref<?xf64, strided<[1], offset: ?>>, memref<?xf64, strided<[1], offset: ?>>, memref<?xf64, strided<[1], offset: ?>>) -> ()
    } else {
      %pso = arith.subi %so, %b2 : index
      %prev = memref.subview %state[%pso] [%b] [1] : memref<?xf64> to memref<?xf64, strided<[1], offset: ?>>
      func.call @lstm_model(%b, %lp, %ls, %prev) : (index, memref<?xf64, strided<[1], offset: ?>>, memref<?xf64, strided<[1], offset: ?>>, memref<?xf64, strided<[1], offset: ?>>) -> ()
    }
  }
  // layer_output after the loop: the hidden state of layer l - 1 (l >= 1).
  %lm1 = arith.subi %l, %c1 : index
  %lo = arith.muli %b2, %lm1 : index
  %layer_output = memref.subview %state[%lo] [%b] [1] : memref<?xf64> to memref<?xf64, strided<[1], offset: ?>>
  // for (int i = 0; i < b; ++i)
  //   output[i] = layer_output[i] * extra_params.out_weight[i] + extra_params.out_bias[i];
  scf.for %i = %c0 to %b step %c1 {
    %x = memref.load %layer_output[%i] : memref<?xf64, strided<[1], offset: ?>>
    %iw = arith.addi %b, %i : index
    %w = memref.load %extra_params[%iw] : memref<?xf64>
    %ib = arith.addi %b2, %i : index
    %bb = memref.load %extra_params[%ib] : memref<?xf64>
    %y0 = arith.mulf %x, %w : f64
    %y = arith.addf %y0, %bb : f64
    memref.store %y, %output[%i] : memref<?xf64>
  }
  return
}

// LSTM objective (loss function): the reference's `objective`, returning
// *loss.
func.func @lstm(%main2: memref<?x?xf64>, %extra2: memref<?x?xf64>, %state2: memref<?x?xf64>, %seq2: memref<?x?xf64>) -> f64 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %zero = arith.constant 0.0 : f64
  // l, c, b as from_json reads them.
  %rows = memref.dim %main2, %c0 : memref<?x?xf64>
  %l = arith.divui %rows, %c2 : index
  %b = memref.dim %state2, %c1 : memref<?x?xf64>
  %c = memref.dim %seq2, %c0 : memref<?x?xf64>
  // The flat row-major arrays of from_json.
  %main_params = memref.collapse_shape %main2 [[0, 1]] : memref<?x?xf64> into memref<?xf64>
  %extra_params = memref.collapse_shape %extra2 [[0, 1]] : memref<?x?xf64> into memref<?xf64>
  %state = memref.collapse_shape %state2 [[0, 1]] : memref<?x?xf64> into memref<?xf64>
  %sequence = memref.collapse_shape %seq2 [[0, 1]] : memref<?x?xf64> into memref<?xf64>
  // std::vector<T> state_copy(l*2*b); std::copy(state, state + l*2*b, state_copy);
  %l2b = arith.muli %rows, %b : index
  %state_copy = memref.alloc(%l2b) : memref<?xf64>
  memref.copy %state, %state_copy : memref<?xf64> to memref<?xf64>
  // std::vector<T> ypred(b), ynorm(b);
  %ypred = memref.alloc(%b) : memref<?xf64>
  %ynorm = memref.alloc(%b) : memref<?xf64>
  %cm1 = arith.subi %c, %c1 : index
  %res:2 = scf.for %t = %c0 to %cm1 step %c1 iter_args(%total = %zero, %count = %c0) -> (f64, index) {
    // lstm_predict(l, b, ..., sequence_wrap.sequence[t], ypred.data());
    %xo = arith.muli %b, %t : index
    %x = memref.subview %sequence[%xo] [%b] [1] : memref<?xf64> to memref<?xf64, strided<[1], offset: ?>>
    func.call @lstm_predict(%l, %b, %main_params, %extra_params, %state_copy, %x, %ypred) : (index, index, memref<?xf64>, memref<?xf64>, memref<?xf64>, memref<?xf64, strided<[1], offset: ?>>, memref<?xf64>) -> ()
    // T lse = logsumexp(ypred.data(), b);
    %lse = func.call @logsumexp(%ypred, %b) : (memref<?xf64>, index) -> f64
    // for (int i = 0; i < b; ++i) ynorm[i] = ypred[i] - lse;
    scf.for %i = %c0 to %b step %c1 {
      %y = memref.load %ypred[%i] : memref<?xf64>
      %n = arith.subf %y, %lse : f64
      memref.store %n, %ynorm[%i] : memref<?xf64>
    }
    // const T* ygold = sequence_wrap.sequence[t + 1];
    %tn = arith.addi %t, %c1 : index
    %go = arith.muli %b, %tn : index
    %ygold = memref.subview %sequence[%go] [%b] [1] : memref<?xf64> to memref<?xf64, strided<[1], offset: ?>>
    // for (int i = 0; i < b; ++i) total += ygold[i] * ynorm[i];
    %total2 = scf.for %i = %c0 to %b step %c1 iter_args(%acc = %total) -> f64 {
      %g = memref.load %ygold[%i] : memref<?xf64, strided<[1], offset: ?>>
      %n = memref.load %ynorm[%i] : memref<?xf64>
      %p = arith.mulf %g, %n : f64
      %acc2 = arith.addf %acc, %p : f64
      scf.yield %acc2 : f64
    }
    // count += b;
    %count2 = arith.addi %count, %b : index
    scf.yield %total2, %count2 : f64, index
  }
  memref.dealloc %ynorm : memref<?xf64>
  memref.dealloc %ypred : memref<?xf64>
  memref.dealloc %state_copy : memref<?xf64>
  // *loss = -total / count;
  %nt = arith.negf %res#0 : f64
  %cnti = arith.index_cast %res#1 : index to i64
  %cnt = arith.sitofp %cnti : i64 to f64
  %loss = arith.divf %nt, %cnt : f64
  return %loss : f64
}
